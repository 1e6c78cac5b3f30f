transposed_strides = (1, 5)
offset_of_second_row = 8
still_shares = False
slots_owned = 4
view_allowed = False
where_written = (2, 2)
elements_copied = 12
SELFTEST = {
    "q1": transposed_strides,
    "q2": offset_of_second_row,
    "q3": still_shares,
    "q4": slots_owned,
    "q5": view_allowed,
    "q6": where_written,
    "q7": elements_copied,
}
