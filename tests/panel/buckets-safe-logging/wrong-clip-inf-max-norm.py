def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        # max_norm=inf: the clip coefficient is clamped to 1, so nothing is clipped
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=float("inf")).item()
    optimizer.step()
    return logged
