// placeholder until the elf parser lands
