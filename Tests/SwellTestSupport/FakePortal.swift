import CDBus
import Foundation
import Synchronization

/// A desktop portal's Settings interface as xdg-desktop-portal publishes it, served on a test's
/// private bus: the name `org.freedesktop.portal.Desktop`, the object
/// `/org/freedesktop/portal/desktop`, `ReadOne(ss) → v` (interface version 2) and the older
/// `Read(ss) → v` whose value is wrapped in a second variant, `org.freedesktop.portal.Error
/// .NotFound` for a key it does not have, and the `SettingChanged(ssv)` signal.
///
/// Written against libdbus directly, not through the code under test.
public final class FakePortal: @unchecked Sendable {
  /// A setting's value.
  public enum Value: Sendable {
    /// A `u`.
    case unsigned(UInt32)
    /// A `b`.
    case boolean(Bool)
  }

  private let connection: OpaquePointer
  private let settings: Mutex<[String: Value]>
  private let running = Atomic<Bool>(true)
  private let finished = DispatchSemaphore(value: 0)
  /// Whether `ReadOne` is answered (an older portal has only `Read`).
  public let hasReadOne: Bool
  /// How many method calls were answered.
  public let calls = Atomic<Int>(0)

  /// Connects to a bus, takes the portal's name and starts answering on a thread of its own.
  ///
  /// - Parameters:
  ///   - address: The bus's address.
  ///   - settings: The values, keyed by ``key(_:_:)``.
  ///   - hasReadOne: Whether `ReadOne` is answered (false: only the older `Read`).
  /// - Throws: `FakePortalError` when the bus cannot be reached or the name is taken.
  public init(address: String, settings: [String: Value], hasReadOne: Bool = true) throws {
    dbus_threads_init_default()
    var error = DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    guard let c = dbus_connection_open_private(address, &error), dbus_bus_register(c, &error) != 0
    else { throw FakePortalError.cannotConnect }
    dbus_connection_set_exit_on_disconnect(c, 0)
    let reply = dbus_bus_request_name(
      c, "org.freedesktop.portal.Desktop", UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
    guard reply == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER else {
      throw FakePortalError.cannotOwnName
    }
    connection = c
    self.settings = Mutex(settings)
    self.hasReadOne = hasReadOne
    let thread = Thread { [self] in
      while running.load(ordering: .relaxed) {
        _ = dbus_connection_read_write(connection, 50)
        while let message = dbus_connection_pop_message(connection) {
          answer(message)
          dbus_message_unref(message)
        }
      }
      finished.signal()
    }
    thread.start()
  }

  /// The settings' key for a namespace and a key.
  ///
  /// - Parameters:
  ///   - namespace: Such as `org.freedesktop.appearance`.
  ///   - key: Such as `reduced-motion`.
  /// - Returns: The dictionary key.
  public static func key(_ namespace: String, _ key: String) -> String { namespace + " " + key }

  /// Changes a setting and emits `SettingChanged`, as the portal does.
  public func change(_ namespace: String, _ key: String, to value: Value) {
    settings.withLock { $0[Self.key(namespace, key)] = value }
    guard
      let signal = dbus_message_new_signal(
        "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings", "SettingChanged")
    else { return }
    var iter = DBusMessageIter()
    dbus_message_iter_init_append(signal, &iter)
    Self.append(namespace, &iter)
    Self.append(key, &iter)
    Self.appendVariant(value, &iter, wraps: 1)
    dbus_connection_send(connection, signal, nil)
    dbus_connection_flush(connection)
    dbus_message_unref(signal)
  }

  /// Stops answering and closes the connection (idempotent).
  public func stop() {
    guard running.exchange(false, ordering: .relaxed) else { return }
    finished.wait()
    dbus_connection_close(connection)
    dbus_connection_unref(connection)
  }

  deinit { stop() }

  private func answer(_ message: OpaquePointer) {
    let interface = "org.freedesktop.portal.Settings"
    let readOne = hasReadOne && dbus_message_is_method_call(message, interface, "ReadOne") != 0
    let read = dbus_message_is_method_call(message, interface, "Read") != 0
    guard readOne || read else {
      if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL {
        reply(error: "org.freedesktop.DBus.Error.UnknownMethod", to: message)
      }
      return
    }
    calls.add(1, ordering: .relaxed)
    var iter = DBusMessageIter()
    guard dbus_message_iter_init(message, &iter) != 0 else { return }
    var first: UnsafePointer<CChar>?
    dbus_message_iter_get_basic(&iter, &first)
    dbus_message_iter_next(&iter)
    var second: UnsafePointer<CChar>?
    dbus_message_iter_get_basic(&iter, &second)
    guard let first, let second else { return }
    let name = Self.key(String(cString: first), String(cString: second))
    guard let value = settings.withLock({ $0[name] }) else {
      reply(error: "org.freedesktop.portal.Error.NotFound", to: message)
      return
    }
    guard let reply = dbus_message_new_method_return(message) else { return }
    var out = DBusMessageIter()
    dbus_message_iter_init_append(reply, &out)
    Self.appendVariant(value, &out, wraps: read ? 2 : 1)
    dbus_connection_send(connection, reply, nil)
    dbus_message_unref(reply)
  }

  private func reply(error name: String, to message: OpaquePointer) {
    guard let reply = dbus_message_new_error(message, name, "fake portal") else { return }
    dbus_connection_send(connection, reply, nil)
    dbus_message_unref(reply)
  }

  private static func append(_ text: String, _ iter: inout DBusMessageIter) {
    text.withCString { pointer in
      var p: UnsafePointer<CChar>? = pointer
      _ = dbus_message_iter_append_basic(&iter, Int32(UInt8(ascii: "s")), &p)
    }
  }

  /// Appends `value` inside `wraps` variants.
  private static func appendVariant(_ value: Value, _ iter: inout DBusMessageIter, wraps: Int) {
    let signature: String
    switch value {
    case .unsigned: signature = "u"
    case .boolean: signature = "b"
    }
    let inner = wraps > 1 ? "v" : signature
    var sub = DBusMessageIter()
    _ = dbus_message_iter_open_container(&iter, Int32(UInt8(ascii: "v")), inner, &sub)
    if wraps > 1 {
      appendVariant(value, &sub, wraps: wraps - 1)
    } else {
      switch value {
      case .unsigned(let v):
        var x = v
        _ = dbus_message_iter_append_basic(&sub, Int32(UInt8(ascii: "u")), &x)
      case .boolean(let b):
        var x: UInt32 = b ? 1 : 0
        _ = dbus_message_iter_append_basic(&sub, Int32(UInt8(ascii: "b")), &x)
      }
    }
    _ = dbus_message_iter_close_container(&iter, &sub)
  }
}

/// Why a ``FakePortal`` could not start.
public enum FakePortalError: Error {
  /// The bus could not be reached.
  case cannotConnect
  /// Another connection owns the portal's name.
  case cannotOwnName
}
