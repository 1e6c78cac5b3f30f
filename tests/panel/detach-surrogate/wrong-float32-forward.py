import torch


class SpikeFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return (x > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(ctx.beta * x)
        return grad_output * ctx.beta * s * (1 - s), None


def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    return SpikeFunction.apply(x, beta)
