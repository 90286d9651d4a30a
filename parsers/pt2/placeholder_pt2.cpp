// placeholder until the pt2 parser lands
