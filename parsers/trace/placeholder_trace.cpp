// placeholder until the trace parser lands
