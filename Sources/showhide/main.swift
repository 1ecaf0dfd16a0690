import ShowHideCLI

await ShowHideCommand.run()
