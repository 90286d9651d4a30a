// placeholder until the core parser lands
