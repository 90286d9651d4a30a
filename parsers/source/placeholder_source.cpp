// placeholder until the source parser lands
