/// The registered subcommands, in the order `swell --help` lists them. Add a command's type here
/// (one per line, each with a trailing comma) when its file lands.
let registeredCommands: [any ToolCommand.Type] = [
  FuseCommand.self,
  TraceCommand.self,
  EvaluateCommand.self,
  BenchCommand.self,
  SensorsCommand.self,
  RecordCommand.self,
]
