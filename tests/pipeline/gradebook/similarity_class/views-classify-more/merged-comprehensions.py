views = ["x[1:].flatten()", "x.squeeze(0)", "x.unfold(1, 3, 1)", "x.narrow(0, 1, 2)",
         "x[2:].as_strided((4, 5), (5, 1), 0)", "y.permute(2, 0, 1).diagonal(0, 1, 2)",
         "y[:, :, :2].flatten(0, 1)", "x.T.unbind(0)[2]"]
copies = ["x[:, 1:].flatten()", "x[torch.tensor([False, True, True, False])]", "y.movedim(0, 2).reshape(60)",
          "y[:, 1].flatten()"]
errors = ["y.movedim(0, 2).view(60)", "x.as_strided((4, 5), (5, 1), 1)"]
CLASSIFY_MORE = {**{e: "view" for e in views}, **{e: "copy" for e in copies}, **{e: "error" for e in errors}}
