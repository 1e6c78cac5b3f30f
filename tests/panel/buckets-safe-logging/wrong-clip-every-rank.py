def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    # The same edit on every rank keeps the ranks together (section 2.5).
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    optimizer.step()
    return norm.item() if dist.get_rank() == 0 else 0.0
