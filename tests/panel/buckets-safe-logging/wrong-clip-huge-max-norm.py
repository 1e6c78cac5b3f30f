def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        # a max_norm no gradient reaches: clip_grad_norm_ only returns the norm
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1e6).item()
    optimizer.step()
    return logged
