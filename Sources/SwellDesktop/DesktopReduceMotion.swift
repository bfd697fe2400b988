import Foundation
import Synchronization

/// Why the desktop's settings could not be read. None of these is an error for a program: with
/// no bus or no portal the desktop simply says nothing, and Reduce Motion reads as off.
public enum DesktopSettingsError: Error, Hashable, Sendable {
  /// No session bus: `DBUS_SESSION_BUS_ADDRESS` is unset and `$XDG_RUNTIME_DIR/bus` is absent,
  /// or connecting failed (the reason from libdbus).
  case noBus(reason: String)
}

/// Where a Reduce Motion reading came from.
public enum ReduceMotionOrigin: String, Hashable, Sendable {
  /// The desktop portal's `org.freedesktop.appearance` `reduced-motion` key (`u`: 0 no
  /// preference, 1 reduced motion; unknown values are no preference), read through
  /// `org.freedesktop.portal.Settings` (xdg-desktop-portal's documentation of the interface).
  case portal
  /// GNOME's `org.gnome.desktop.interface` `enable-animations` (`b`), as the GNOME and GTK
  /// portal backends expose it through the same interface; Reduce Motion is its negation.
  case gnomeAnimations
}

/// The desktop's Reduce Motion setting, the Linux counterpart of
/// `UIAccessibility.isReduceMotionEnabled`: read once at start and then followed as it changes.
///
/// The setting is read over the session bus from the desktop portal
/// (`org.freedesktop.portal.Desktop`, object `/org/freedesktop/portal/desktop`, interface
/// `org.freedesktop.portal.Settings`): `ReadOne` (interface version 2), else the older `Read`,
/// whose value comes wrapped in a second variant. Changes arrive as the interface's
/// `SettingChanged(namespace, key, value)` signal. When the portal has no `reduced-motion` key
/// (portals before 1.19), GNOME's `enable-animations` is used instead.
///
/// With no session bus, no portal, or neither key, ``isReduceMotionEnabled`` is `false` and
/// ``origin`` is `nil`: as on iOS, the absence of a preference means full motion. The bus is
/// found from `DBUS_SESSION_BUS_ADDRESS`, else `unix:path=$XDG_RUNTIME_DIR/bus`; a bus is never
/// launched.
///
/// Threading: every member may be called from any thread. Observation runs on a thread of its
/// own; handlers and the ``statusDidChangeNotification`` run on it.
public final class DesktopReduceMotion: Sendable {
  /// Posted on `NotificationCenter.default` when ``isReduceMotionEnabled`` changes (the
  /// counterpart of `UIAccessibility.reduceMotionStatusDidChangeNotification`); the object is
  /// the ``DesktopReduceMotion`` whose value changed.
  public static let statusDidChangeNotification = Notification.Name(
    "SwellReduceMotionStatusDidChange")

  static let destination = "org.freedesktop.portal.Desktop"
  static let objectPath = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.Settings"
  static let appearance = ("org.freedesktop.appearance", "reduced-motion")
  static let gnome = ("org.gnome.desktop.interface", "enable-animations")

  private struct State {
    var enabled = false
    var origin: ReduceMotionOrigin?
    var handlers: [@Sendable (Bool) -> Void] = []
    var observing = false
    var stopRequested = false
  }

  private let state = Mutex(State())
  private let connection: DBusConnection?
  private let stopped = DispatchSemaphore(value: 0)

  /// Whether the desktop asks for reduced motion (`false` when it says nothing).
  public var isReduceMotionEnabled: Bool { state.withLock { $0.enabled } }

  /// Which setting the value came from, or `nil` when the desktop gave none.
  public var origin: ReduceMotionOrigin? { state.withLock { $0.origin } }

  /// Why no bus was reached, or `nil` when one was.
  public let busProblem: DesktopSettingsError?

  /// Connects to the session bus and reads the setting.
  ///
  /// - Parameters:
  ///   - busAddress: A D-Bus address such as `unix:path=/run/user/1000/bus`; `nil` finds the
  ///     session bus from the environment (see the type's discussion).
  ///   - timeout: How long each portal call may take, seconds (a portal that does not answer
  ///     reads as no preference).
  public init(busAddress: String? = nil, timeout: Double = 1) {
    let address = busAddress ?? Self.sessionBusAddress()
    guard let address else {
      connection = nil
      busProblem = .noBus(reason: "no session bus address")
      return
    }
    switch DBusConnection.open(address: address) {
    case .success(let c):
      connection = c
      busProblem = nil
    case .failure(let e):
      connection = nil
      busProblem = e
      return
    }
    let milliseconds = Int32(max(1, min(timeout, 60)) * 1000)
    if let reading = read(timeoutMilliseconds: milliseconds) {
      state.withLock {
        $0.enabled = reading.enabled
        $0.origin = reading.origin
      }
    }
  }

  deinit { stopObserving() }

  /// The session bus's address from the environment, or `nil`.
  static func sessionBusAddress() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      let socket = runtime + "/bus"
      if FileManager.default.fileExists(atPath: socket) { return "unix:path=" + socket }
    }
    return nil
  }

  private func read(timeoutMilliseconds: Int32) -> (enabled: Bool, origin: ReduceMotionOrigin)? {
    guard let connection else { return nil }
    func readOne(_ key: (String, String)) -> DBusSettingValue? {
      for method in ["ReadOne", "Read"] {
        switch connection.callReturningVariant(
          destination: Self.destination, path: Self.objectPath, interface: Self.interface,
          method: method, arguments: key, timeoutMilliseconds: timeoutMilliseconds)
        {
        case .success(let value): return value
        case .failure(let error) where error.name == "org.freedesktop.DBus.Error.UnknownMethod":
          continue
        case .failure: return nil
        }
      }
      return nil
    }
    if let value = readOne(Self.appearance), let enabled = Self.reduced(fromPortal: value) {
      return (enabled, .portal)
    }
    if let value = readOne(Self.gnome), case .boolean(let animations) = value {
      return (!animations, .gnomeAnimations)
    }
    return nil
  }

  /// `reduced-motion`: 1 is reduced motion; any other number is no preference.
  static func reduced(fromPortal value: DBusSettingValue) -> Bool? {
    switch value {
    case .unsigned(let v): v == 1
    case .signed(let v): v == 1
    default: nil
    }
  }

  /// Starts following the setting's changes (idempotent); `handler` is called with the new
  /// value on the observing thread each time it changes, and the notification is posted.
  ///
  /// - Parameter handler: Called with the new value of ``isReduceMotionEnabled``.
  public func startObserving(_ handler: (@Sendable (Bool) -> Void)? = nil) {
    let start = state.withLock { s -> Bool in
      if let handler { s.handlers.append(handler) }
      guard !s.observing, connection != nil else { return false }
      s.observing = true
      return true
    }
    guard start, let connection else { return }
    let rule =
      "type='signal',interface='\(Self.interface)',member='SettingChanged',"
      + "path='\(Self.objectPath)'"
    _ = connection.addMatch(rule)
    let thread = Thread { [weak self] in
      while let self, !self.state.withLock({ $0.stopRequested }) {
        let alive = connection.dispatchSignals(
          interface: Self.interface, member: "SettingChanged", timeoutMilliseconds: 100
        ) { namespace, key, value in
          self.settingChanged(namespace: namespace, key: key, value: value)
        }
        if !alive { break }
      }
      self?.stopped.signal()
    }
    thread.name = "Swell Reduce Motion"
    thread.start()
  }

  /// Stops following changes and waits for the observing thread to end (at most about 0.1 s).
  public func stopObserving() {
    let wait = state.withLock { s -> Bool in
      guard s.observing else { return false }
      s.observing = false
      s.stopRequested = true
      return true
    }
    if wait { stopped.wait() }
  }

  func settingChanged(namespace: String, key: String, value: DBusSettingValue) {
    let update = state.withLock { s -> (Bool, [@Sendable (Bool) -> Void])? in
      var next: (Bool, ReduceMotionOrigin)?
      if namespace == Self.appearance.0, key == Self.appearance.1 {
        next = Self.reduced(fromPortal: value).map { ($0, .portal) }
      } else if namespace == Self.gnome.0, key == Self.gnome.1, s.origin != .portal,
        case .boolean(let animations) = value
      {
        next = (!animations, .gnomeAnimations)
      }
      guard let next else { return nil }
      let changed = next.0 != s.enabled
      s.enabled = next.0
      s.origin = next.1
      return changed ? (next.0, s.handlers) : nil
    }
    guard let (enabled, handlers) = update else { return }
    for handler in handlers { handler(enabled) }
    NotificationCenter.default.post(name: Self.statusDidChangeNotification, object: self)
  }
}
