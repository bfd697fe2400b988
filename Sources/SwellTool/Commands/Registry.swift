/// The tool's own subcommands, in the order `swell --help` lists them (the built-in `version`,
/// `completion` and `manpage` follow). Add a command's type here
/// (one per line, each with a trailing comma) when its file lands.
let registeredCommands: [any ToolCommand.Type] = [
  DemoCommand.self,
  RenderCommand.self,
  LiveCommand.self,
  TraceCommand.self,
  SceneCommand.self,
  FuseCommand.self,
  EvaluateCommand.self,
  SensorsCommand.self,
  RecordCommand.self,
  BenchCommand.self,
]
