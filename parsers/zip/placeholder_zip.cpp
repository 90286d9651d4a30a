// placeholder until the zip parser lands
