import SwellMotion
import SwellTime

extension SensorDoctor {
  /// Asks a DSU (cemuhook) server what it serves (``DSUProbe``) and reads each connected slot
  /// for a moment.
  ///
  /// - Parameters:
  ///   - host: The server's address.
  ///   - port: Its UDP port.
  ///   - timeout: Seconds to wait for the server's answers.
  ///   - measureSeconds: How long to read each connected slot, seconds; 0 reads nothing.
  ///   - clock: The clock of the reads.
  /// - Returns: One check per connected slot, and a note when the server did not answer or has
  ///   no controller connected.
  public static func dsuChecks(
    host: String = "127.0.0.1", port: UInt16 = DSUProtocol.defaultPort, timeout: Double = 0.5,
    measureSeconds: Double = 1, clock: MonotonicClock = .continuous
  ) async -> (checks: [SensorCheck], notes: [String]) {
    let probe = DSUProbe.query(host: host, port: port, timeout: timeout)
    guard probe.reachable else {
      let why = probe.problem.map { ": \($0)" } ?? ""
      return ([], ["no DSU server answered on \(probe.server)\(why)"])
    }
    let connected = probe.connectedSlots
    guard !connected.isEmpty else {
      return ([], ["the DSU server on \(probe.server) has no controller connected"])
    }
    var checks: [SensorCheck] = []
    for slot in connected {
      var check = SensorCheck(
        kind: .dsu, id: "dsu:\(probe.server)#\(slot.slot)",
        name: ([slot.model, slot.mac, slot.connection] + ["battery " + slot.battery])
          .filter { !$0.hasSuffix("not applicable") }.joined(separator: ", "),
        units: "accelerometer in g, gyroscope in °/s (the DSU protocol's), as m/s² and rad/s",
        timestamps: "hardware (the server's µs motion timestamp)", mountMatrix: "not applicable",
        readable: true)
      if measureSeconds > 0 {
        do {
          let source = try DSUClientSource(
            configuration: DSUClientConfiguration(host: host, port: port, slot: UInt8(slot.slot)),
            clock: clock)
          switch await measure(source, seconds: measureSeconds, clock: clock) {
          case .success(let m):
            check.measurement = m
            check.problems += unitProblems(m, scaleHint: "the server's accelerometer values (g)")
            if m.samples == 0 {
              check.problems.append(
                SensorProblem(
                  "slot \(slot.slot) is connected but sent no motion within \(measureSeconds) s",
                  fix: "check that the server sends motion (some servers need the pad's gyro on)"))
            }
          case .failure(let error):
            check.problems.append(
              SensorProblem(error.message, fix: "check the server and the slot number"))
          }
        } catch {
          check.readable = false
          check.problems.append(SensorProblem(error.message, fix: "check the address and port"))
        }
      }
      checks.append(check)
    }
    return (checks, [])
  }
}
