"""One module per joint type, each opening with its constraint maths and implementing the shared
verbs (prepare, warm start, solve with or without bias) as kernels over all joints of its type."""
