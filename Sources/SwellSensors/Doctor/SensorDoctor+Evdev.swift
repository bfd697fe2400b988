import Glibc
import SwellEvdev
import SwellMotion
import SwellTime

extension SensorDoctor {
  /// Lists the evdev motion-sensor nodes (game controllers and handhelds) with their pads, and
  /// reads each for a moment.
  ///
  /// For each node: its units from the axes' resolutions (`EVIOCGABS`: units per g on
  /// `ABS_X/Y/Z`, per °/s on `ABS_RX/RY/RZ`), where its times come from (`MSC_TIMESTAMP`, the
  /// device's clock, or the event times), the driver family whose axis mapping orients it, and
  /// what a read measured (the frame rate and its jitter from arrival times). A node that cannot
  /// be opened for lack of permission gets the udev rule as its fix.
  ///
  /// - Parameters:
  ///   - configuration: Where to look (sysfs and device roots) and axis overrides; its
  ///     `device` is ignored (every node is checked).
  ///   - measureSeconds: How long to read each node, seconds; 0 only opens it.
  ///   - clock: The clock of the reads.
  /// - Returns: One check per motion node, and a note when there is none or the folder cannot
  ///   be listed.
  public static func evdevChecks(
    configuration: EvdevSourceConfiguration = EvdevSourceConfiguration(),
    measureSeconds: Double = 1, clock: MonotonicClock = .continuous
  ) async -> (checks: [SensorCheck], notes: [String]) {
    let discovery = EvdevDiscovery(
      sysfsRoot: configuration.sysfsRoot, devRoot: configuration.devRoot)
    let nodes: [EvdevNode]
    do {
      nodes = try discovery.motionNodes()
    } catch {
      return ([], ["no evdev input devices: \(error.message)"])
    }
    guard !nodes.isEmpty else {
      return ([], ["no evdev motion sensors (no input device with INPUT_PROP_ACCELEROMETER)"])
    }
    var checks: [SensorCheck] = []
    for node in nodes {
      checks.append(
        await evdevCheck(
          node, configuration: configuration, measureSeconds: measureSeconds, clock: clock))
    }
    return (checks, [])
  }

  private static func evdevCheck(
    _ node: EvdevNode, configuration: EvdevSourceConfiguration, measureSeconds: Double,
    clock: MonotonicClock
  ) async -> SensorCheck {
    var check = SensorCheck(
      kind: .evdev, id: node.devicePath, name: node.name, pad: node.pad?.name,
      units: "not read (the node could not be opened)",
      timestamps: node.hasTimestamp
        ? "hardware (MSC_TIMESTAMP)" : "synthesised (event times, CLOCK_MONOTONIC)",
      mountMatrix: "not applicable", readable: false)
    var c = configuration
    c.device = node.devicePath
    let source: EvdevSource
    do {
      source = try EvdevSource(configuration: c, clock: clock)
    } catch {
      check.readable = !error.isPermissionDenied
      check.problems.append(
        SensorProblem(
          error.message,
          fix: error.isPermissionDenied
            ? "install the udev rule as \(EvdevError.udevRulePath):\n\(EvdevError.udevRule)\n"
              + "then run `sudo udevadm control --reload` and replug the pad"
            : "check the pad's driver (dmesg); a node without axis resolutions needs its "
              + "ranges from an evemu description"))
      return check
    }
    check.readable = true
    let axes = source.deviceDescription.absoluteAxes
    let accel = axes[0]?.resolution ?? 0
    let gyro = axes[3]?.resolution ?? 0
    check.units =
      source.hasGyroscope
      ? "accelerometer \(accel) units per g (ABS_X/Y/Z resolution), gyroscope \(gyro) units "
        + "per °/s (ABS_RX/RY/RZ resolution), as m/s² and rad/s"
      : "accelerometer \(accel) units per g (ABS_X/Y/Z resolution), as m/s²; no gyroscope "
        + "(motion is estimated from the accelerometer alone)"
    check.mountMatrix = "axes of the \(source.family.rawValue) driver family (docs/sensors.md)"
    if node.hasTimestamp && !source.family.hasDeviceClock {
      check.timestamps =
        "synthesised (the driver's MSC_TIMESTAMP adds a fixed 4 ms; times from arrival)"
    }
    guard measureSeconds > 0 else {
      await source.stop()
      return check
    }
    switch await measure(source, seconds: measureSeconds, clock: clock) {
    case .success(let m):
      check.measurement = m
      let stats = source.statistics
      if let rate = stats.measuredRateHertz {
        var text = String(format: "; arrivals %.1f Hz", rate)
        if let j = stats.jitterSeconds { text += String(format: ", jitter %.2f ms", j * 1000) }
        check.timestamps += text
      }
      if stats.droppedSynchronizations > 0 {
        check.problems.append(
          SensorProblem(
            "\(stats.droppedSynchronizations) SYN_DROPPED: the kernel's event buffer overflowed",
            fix: "read the node without pauses (a busy machine or a slow reader drops events)"))
      }
      check.problems += unitProblems(m, scaleHint: "the ABS_X/Y/Z resolution (units per g)")
      if m.samples == 0 {
        check.problems.append(
          SensorProblem(
            "no motion within \(measureSeconds) s",
            fix: "some pads send motion only while connected by cable or with a report mode "
              + "set; move the pad and try again"))
      }
    case .failure(let error):
      check.problems.append(
        SensorProblem(error.message, fix: "check the pad's connection and driver (dmesg)"))
    }
    return check
  }
}
