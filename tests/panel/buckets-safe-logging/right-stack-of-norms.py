def train_step_fixed(model, optimizer, batch) -> float:
    """One DDP step; rank 0 also logs the norm of the whole gradient, read-only."""
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    logged = 0.0
    if dist.get_rank() == 0:
        with torch.no_grad():
            norms = [torch.linalg.vector_norm(p.grad) for p in model.parameters()
                     if p.grad is not None]
            if norms:
                logged = float(torch.linalg.vector_norm(torch.stack(norms)))
    optimizer.step()
    return logged
