# Replace each ... with your answer.
out_entries = len(["out.weight", "out.bias"])
saved = ["linear.weight", "linear.bias", "steps"]
shared_weight, enc_bias, dec_bias = 8 * 8, 8, 8
SELFTEST = {
    "q1": out_entries,
    "q2": len(saved),
    "q3": shared_weight + enc_bias + dec_bias,
    "q4": bool(0),
    "q5": bool(0),
    "q6": "parameter",
}
