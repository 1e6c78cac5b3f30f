# Replace each ... with your answer.
rows, cols = 3, 5
SELFTEST = dict(
    q1=tuple([1, cols]),  # transposed strides of a (3, 5) tensor
    q2=int(8),  # one row of 8 slots
    q3=bool(0),  # a fresh copy: no shared storage
    q4=len(range(4)),  # 4 slots, read 3 times each
    q5=not True,  # columns 1..2 of each row are 4 slots apart, view refuses
    q6=(10 // 4, 10 % 4),  # b[1][2] reads slot 1 * 8 + 2 = 10
    q7=rows * 4,  # 12 elements written out
)
