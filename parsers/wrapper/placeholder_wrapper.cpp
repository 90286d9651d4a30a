// placeholder until the wrapper parser lands
