import SheafCLI

Sheaf.run()
