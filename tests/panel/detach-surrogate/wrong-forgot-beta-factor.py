import torch


class _Spike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        s = torch.sigmoid(beta * x)
        ctx.save_for_backward(s)
        return (x > 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (s,) = ctx.saved_tensors
        # derivative of the sigmoid: s * (1 - s)
        return grad_output * s * (1 - s), None


def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    return _Spike.apply(x, beta)
