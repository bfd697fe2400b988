/// The `swell` command-line tool's entry point, a thin layer over the library.
public enum SwellTool {
  /// Runs the tool with the given arguments (without the program name) and returns the exit code.
  ///
  /// - Parameter arguments: The command-line arguments.
  /// - Returns: The process exit status.
  public static func main(_ arguments: [String]) -> Int32 { 0 }
}
