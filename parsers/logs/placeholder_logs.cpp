// placeholder until the logs parser lands
