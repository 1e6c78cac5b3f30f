# Replace each ... with your answer.
BATCHNORM = {}
BATCHNORM["parameters"] = 0
BATCHNORM["state_dict"] = 3
training_forwards = 3
BATCHNORM["tracked_after_train"] = training_forwards
BATCHNORM["tracked_after_eval"] = training_forwards + 0
BATCHNORM["tracked_dtype_after_to"] = "torch." + "int64"
BATCHNORM["mean_dtype_after_to"] = "torch." + "float16"
