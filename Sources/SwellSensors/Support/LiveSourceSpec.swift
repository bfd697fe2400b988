import SwellMotion
import SwellTime

/// A live motion source named in one word: `iio`, `iio:NAME`, `udp:PORT`, `phone:URL` or
/// `evdev[:NAME|PATH]`, as a
/// recorder or a live view is told where its motion comes from. Parsed once, here, for every
/// caller.
public enum LiveSourceSpec: Hashable, Sendable {
  /// Linux IIO sensors: the first accelerometer (with a gyroscope and magnetometer when
  /// present), or the device a chip name, name prefix or `iio:deviceN` picks.
  case iio(device: String?)
  /// A phone streaming JSON or CSV lines over UDP to this port.
  case udp(port: UInt16)
  /// A phone running phyphox with remote access on, at this address.
  case phone(PhyphoxAddress)
  /// A DSU (cemuhook) server's controller slot (`dsu[:HOST[:PORT]][#SLOT]`).
  case dsu(host: String, port: UInt16, slot: UInt8)
  /// A game controller's or handheld's motion-sensor node: the first one, or the one a name
  /// part (`dualsense`) or node (`event5`, `/dev/input/event5`) picks.
  case evdev(device: String?)

  /// The three kinds of source, for options that apply to one of them.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// `iio[:NAME]`.
    case iio
    /// `udp:PORT`.
    case udp
    /// `phone:URL`.
    case phone
    /// `dsu[:HOST[:PORT]][#SLOT]`.
    case dsu
    /// `evdev[:NAME|PATH]`.
    case evdev
  }

  /// The kind of source.
  public var kind: Kind {
    switch self {
    case .iio: return .iio
    case .udp: return .udp
    case .phone: return .phone
    case .dsu: return .dsu
    case .evdev: return .evdev
    }
  }

  /// Whether a word names a live source (rather than a file or something else): it is `iio`
  /// or `evdev`, or starts with `iio:`, `udp:`, `phone:` or `evdev:`. The word may still be
  /// malformed.
  ///
  /// - Parameter text: The word.
  /// - Returns: True for a live source's word.
  public static func names(_ text: String) -> Bool {
    text == "iio" || text.hasPrefix("iio:") || text.hasPrefix("udp:") || text.hasPrefix("phone:")
      || isDSU(text)
      || text == "evdev" || text.hasPrefix("evdev:")
  }

  /// Parses a source word.
  ///
  /// - Parameter text: `iio`, `iio:NAME`, `udp:PORT` (0...65535) or `phone:URL`
  ///   (`phone:http://192.168.1.20:8080`), `evdev` or `evdev:NAME|PATH`.
  /// - Throws: ``LiveSourceError`` (a usage mistake) naming the bad part.
  public init(parsing text: String) throws(LiveSourceError) {
    if text == "iio" {
      self = .iio(device: nil)
    } else if text.hasPrefix("iio:") {
      let name = String(text.dropFirst(4))
      self = .iio(device: name.isEmpty ? nil : name)
    } else if text == "evdev" || text.hasPrefix("evdev:") {
      let device = String(text.dropFirst(6))
      self = .evdev(device: device.isEmpty ? nil : device)
    } else if text.hasPrefix("udp:") {
      let port = text.dropFirst(4)
      guard let number = UInt16(port) else {
        throw LiveSourceError(
          "udp:PORT needs a port number 0...65535, got '\(UntrustedText.clipped(String(port)))'",
          isUsage: true)
      }
      self = .udp(port: number)
    } else if text.hasPrefix("phone:") {
      do {
        self = .phone(try PhyphoxAddress(parsing: String(text.dropFirst(6))))
      } catch {
        throw LiveSourceError(error.message, isUsage: true)
      }
    } else if Self.isDSU(text) {
      self = try Self.parseDSU(text)
    } else {
      throw LiveSourceError(
        "unknown source '\(UntrustedText.clipped(text))'; expected iio, iio:NAME, udp:PORT, "
          + "phone:URL, dsu[:HOST[:PORT]][#SLOT] or evdev[:NAME|PATH]", isUsage: true)
    }
  }

  /// Opens the source.
  ///
  /// - Parameters:
  ///   - settings: The settings of each kind of source (only this kind's are used).
  ///   - clock: The clock the source polls, times out, reconnects and maps device timestamps
  ///     on (default: the system's monotonic clock): the same instance as the manager's, so a
  ///     session runs on one clock.
  /// - Returns: The source; nothing is read before its first `next()` (a UDP socket is bound).
  /// - Throws: ``LiveSourceError``: a malformed setting (a usage mistake), or a source that
  ///   cannot be opened (no sensor, a port in use).
  public func open(
    _ settings: LiveSourceSettings = LiveSourceSettings(), clock: MonotonicClock = .continuous
  ) throws(LiveSourceError) -> any MotionSource {
    switch self {
    case .iio(let device):
      var c = settings.iio
      c.deviceName = device
      do {
        return try IIOSource(configuration: c, clock: clock)
      } catch {
        throw LiveSourceError(error.message, isUsage: false)
      }
    case .udp(let port):
      do {
        return try UDPMotionSource(
          port: port, address: settings.udpAddress, format: settings.udpFormat, clock: clock)
      } catch {
        throw LiveSourceError(error.message, isUsage: false)
      }
    case .phone(let address):
      var c = PhyphoxConfiguration(address: address)
      c.buffers = settings.phyphoxBuffers
      c.pollInterval = settings.phyphoxPollInterval
      return PhyphoxSource(configuration: c, clock: clock)
    case .dsu(let host, let port, let slot):
      do {
        return try DSUClientSource(
          configuration: DSUClientConfiguration(host: host, port: port, slot: slot), clock: clock)
      } catch {
        throw LiveSourceError(error.message, isUsage: false)
      }
    case .evdev(let device):
      var c = settings.evdev
      c.device = device
      do {
        return try EvdevSource(configuration: c, clock: clock)
      } catch {
        throw LiveSourceError(error.message, isUsage: false)
      }
    }
  }
}

/// The settings of the live sources a ``LiveSourceSpec`` opens, one part per kind.
public struct LiveSourceSettings: Hashable, Sendable {
  /// IIO: sysfs and device roots, read mode, rates (the device name comes from the spec).
  public var iio = IIOSourceConfiguration()
  /// UDP: the IPv4 address to listen on.
  public var udpAddress = "127.0.0.1"
  /// UDP: the accepted line format.
  public var udpFormat = PhoneStreamFormat.automatic
  /// phyphox: the buffers holding the sensors.
  public var phyphoxBuffers = PhyphoxBufferNames()
  /// phyphox: seconds between polls.
  public var phyphoxPollInterval = 0.05
  /// evdev: sysfs and device roots, reconnect interval, axis overrides (the node comes from the
  /// spec).
  public var evdev = EvdevSourceConfiguration()

  /// The default settings.
  public init() {}
}

/// A live source that could not be named or opened: one line, and whether it was a usage
/// mistake (a malformed word) or the source itself failing.
public struct LiveSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The one-line reason.
  public var message: String
  /// True for a malformed word or setting; false when the source could not be opened.
  public var isUsage: Bool

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - message: The reason.
  ///   - isUsage: Whether it is a usage mistake.
  public init(_ message: String, isUsage: Bool) {
    self.message = message
    self.isUsage = isUsage
  }

  /// The message.
  public var description: String { message }
}
