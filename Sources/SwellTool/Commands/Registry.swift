/// The registered subcommands. Add a command's type here when its file lands.
let registeredCommands: [any ToolCommand.Type] = [
  LiveCommand.self
]
