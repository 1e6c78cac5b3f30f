def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        logged = next(model.parameters()).grad.norm().item()  # the gradient's norm, read-only
    optimizer.step()
    return logged
