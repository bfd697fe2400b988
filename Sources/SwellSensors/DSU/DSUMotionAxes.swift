import SwellGeometry
import SwellMotion

/// How DSU motion maps to Swell's device frame, both ways.
///
/// **The DSU axes are the reference server's.** DS4Windows (`DS4Library/DS4Sixaxis.cs`,
/// `handleSixaxis`) sends the DualShock 4's raw axes with pitch as read and yaw, roll and all
/// three accelerometer axes negated. The raw DualShock 4 axes are SDL's controller frame (SDL
/// passes them through unchanged, `SDL_hidapi_ps4.c`; the frame is `SDL_sensor.h`'s: +x right,
/// +y up out of the face of a controller lying flat, +z toward the player; gyroscope
/// right-handed; a controller at rest reads +1 g on +y). So, for a controller lying flat, face
/// up, DSU reads:
///
/// - accelerometer in g as the **direction of gravity**, not the specific force: (0, −1, 0) at
///   rest lying flat (the raw +1 g, negated);
/// - pitch = rotation rate about +x (right); yaw = minus the rate about SDL's +y (up), so a
///   clockwise turn seen from above is positive yaw; roll = minus the rate about SDL's +z
///   (toward the player), i.e. the rate about the axis pointing away from the player.
///
/// Swell's frame for a controller is that of a phone lying in its place: +x right, +y away
/// from the player (the far edge, where the triggers are), +z out of the face. Hence
///
/// - specific force, m/s² = g₀ · (−ax, az, −ay)
/// - angular rate, rad/s = (π/180) · (pitch, roll, −yaw)
///
/// with g₀ = 9.80665 m/s². The two emulators agree, each in its own frame: yuzu
/// (`input_common/drivers/udp_client.cpp`) takes gyro (pitch, roll, −yaw) and accelerometer
/// (ax, −az, ay) as gravity direction in a frame with +y away and +z up (the negation of
/// Swell's specific force); Dolphin (`DualShockUDPClient.cpp`) reads "Accel Up" as −ay,
/// "Accel Right" as −ax, "Accel Forward" as +az, "Gyro Roll Right" as +roll and "Gyro Yaw
/// Right" as +yaw. Citra (`input_common/udp/client.cpp`) negates x and z of the accelerometer
/// and pitch and yaw for the 3DS's own frame.
public enum DSUMotionAxes {
  /// Degrees per radian.
  private static let degreesPerRadian = 180 / Double.pi

  /// Converts DSU motion to Swell's device frame.
  ///
  /// - Parameters:
  ///   - accelerometer: DSU x, y, z, g (gravity direction, −1 g on y lying flat).
  ///   - gyroscope: DSU pitch, yaw, roll, °/s.
  /// - Returns: Specific force, m/s², and angular rate, rad/s, right-handed, device frame.
  public static func deviceFrame(accelerometer: [Float], gyroscope: [Float]) -> (
    accelerometer: Vector3, gyroscope: Vector3
  ) {
    let (a, g) = (accelerometer, gyroscope)
    let ax = Double(a[0])
    let ay = Double(a[1])
    let az = Double(a[2])
    let pitch = Double(g[0])
    let yaw = Double(g[1])
    let roll = Double(g[2])
    return (
      Vector3(-ax, az, -ay) * standardGravity,
      Vector3(pitch, roll, -yaw) / degreesPerRadian
    )
  }

  /// Converts Swell's device-frame motion to DSU's (the inverse of ``deviceFrame(accelerometer:gyroscope:)``).
  ///
  /// - Parameters:
  ///   - specificForce: m/s², device frame (+9.81 on +z lying face up).
  ///   - rotationRate: rad/s, device frame, right-handed.
  /// - Returns: DSU accelerometer x, y, z in g and gyroscope pitch, yaw, roll in °/s.
  public static func dsu(specificForce: Vector3, rotationRate: Vector3) -> (
    accelerometer: [Float], gyroscope: [Float]
  ) {
    let a = specificForce / standardGravity
    let d = rotationRate * degreesPerRadian
    return ([Float(-a.x), Float(-a.z), Float(a.y)], [Float(d.x), Float(-d.z), Float(d.y)])
  }

  /// The specific force and rotation rate of fused device motion, for a source without raw
  /// samples (a script, a device-motion recording): specific force = (userAcceleration −
  /// gravity) · g₀ (CoreMotion's gravity points toward the Earth, so at rest face up this is
  /// +g₀ on z), rotation rate = `rotationRate` (bias-corrected).
  ///
  /// - Parameter motion: The device motion.
  /// - Returns: m/s² and rad/s, device frame.
  public static func rawEquivalent(of motion: DeviceMotion) -> (
    specificForce: Vector3, rotationRate: Vector3
  ) {
    ((motion.userAcceleration - motion.gravity) * standardGravity, motion.rotationRate)
  }
}

/// Maps a DSU server's motion timestamps (µs, any origin) onto the local monotonic clock.
///
/// The offset between the clocks is the smallest `arrival − sent` seen (a sample cannot
/// arrive before it was measured, so the least delayed one is the best estimate), allowed to
/// grow by ``driftAllowance`` seconds per second so that a server clock running slow is
/// followed too. Sample spacing is the server's (no jitter from arrival times), a mapped time
/// is never later than its arrival, and mapped times never decrease. A server clock that jumps
/// (a restart: back by more than ``restartTolerance``, or ahead by more than the local time
/// passed plus ``restartTolerance``) starts a new mapping at the arrival time.
struct DSUClockMapper: Sendable {
  /// How fast the offset may grow, seconds per second (100 ppm).
  var driftAllowance = 1e-4
  /// How far a server clock may jump before it counts as restarted, seconds.
  var restartTolerance = 1.0

  /// How many times the server's clock jumped and a new mapping started.
  private(set) var restarts = 0

  private var offset: Double?
  private var lastSent = 0.0
  private var lastArrival = 0.0

  /// What became of a timestamp.
  enum Mapping: Equatable, Sendable {
    /// The local time, seconds.
    case time(Double)
    /// Not later than the last one (a repeat, or a reordered datagram).
    case stale
  }

  /// Maps one timestamp.
  ///
  /// - Parameters:
  ///   - microseconds: The server's motion timestamp.
  ///   - arrival: The local monotonic time it arrived, seconds.
  /// - Returns: The local time of the measurement, or `.stale`.
  mutating func map(microseconds: UInt64, arrival: Double) -> Mapping {
    let sent = Double(microseconds) / 1e6
    guard let current = offset else {
      restart(sent: sent, arrival: arrival)
      return .time(arrival)
    }
    let elapsed = max(0, arrival - lastArrival)
    if sent < lastSent - restartTolerance || sent - lastSent > elapsed + restartTolerance {
      restarts += 1
      restart(sent: sent, arrival: arrival)
      return .time(arrival)
    }
    guard sent > lastSent else { return .stale }
    let next = min(current + driftAllowance * elapsed, arrival - sent)
    offset = next
    lastSent = sent
    lastArrival = arrival
    return .time(min(sent + next, arrival))  // (rounding must not pass the arrival)
  }

  private mutating func restart(sent: Double, arrival: Double) {
    offset = arrival - sent
    lastSent = sent
    lastArrival = arrival
  }
}
