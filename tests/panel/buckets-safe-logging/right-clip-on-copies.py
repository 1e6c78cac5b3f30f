def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        # Keep using clip_grad_norm_ for its return value, but on copies the optimizer never reads.
        copies = []
        for p in model.parameters():
            if p.grad is not None:
                copy = nn.Parameter(p.detach().clone())
                copy.grad = p.grad.detach().clone()
                copies.append(copy)
        logged = torch.nn.utils.clip_grad_norm_(copies, max_norm=0.5).item()
    optimizer.step()
    return logged
