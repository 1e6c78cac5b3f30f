def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    optimizer.step()  # the step reads p.grad; it does not change it
    if dist.get_rank() != 0:
        return 0.0
    # torch.cat makes a new flat tensor: reading its norm touches no p.grad.
    flat = torch.cat([p.grad.detach().reshape(-1) for p in model.parameters()
                      if p.grad is not None])
    return flat.norm().item()
