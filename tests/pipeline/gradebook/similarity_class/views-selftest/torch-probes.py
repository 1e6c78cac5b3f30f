m = torch.arange(32.).view(4, 8)
z = torch.zeros(4, 4)
z.view(2, 8)[1][2] = 1.0
wide = torch.arange(3.).unsqueeze(1).expand(3, 4)
SELFTEST = {
    "q1": torch.zeros(3, 5).t().stride(),
    "q2": m[1:].storage_offset(),
    "q3": m.T.contiguous().data_ptr() == m.data_ptr(),
    "q4": torch.zeros(4).expand(3, 4).untyped_storage().nbytes() // 4,
    "q5": torch.arange(12.).view(3, 4)[:, 1:3].is_contiguous(),
    "q6": tuple(z.nonzero()[0].tolist()),
    "q7": wide.contiguous().numel(),
}
