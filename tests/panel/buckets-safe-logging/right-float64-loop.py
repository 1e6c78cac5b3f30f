import math


def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        squares = 0.0
        for p in model.parameters():
            if p.grad is None:
                continue
            g = p.grad.detach().to(torch.float64)  # a converted copy
            squares += (g * g).sum().item()
        logged = math.sqrt(squares)
    optimizer.step()
    return float(logged)
