import CDBus
import Foundation

/// D-Bus type codes (`dbus-protocol.h`: `DBUS_TYPE_*` are the signature characters).
enum DBusType {
  static let string = Int32(UInt8(ascii: "s"))
  static let variant = Int32(UInt8(ascii: "v"))
  static let uint32 = Int32(UInt8(ascii: "u"))
  static let int32 = Int32(UInt8(ascii: "i"))
  static let boolean = Int32(UInt8(ascii: "b"))
  static let invalid = Int32(0)
}

/// A value read from a settings variant: the kinds the settings Swell reads use.
enum DBusSettingValue: Equatable {
  case unsigned(UInt32)
  case signed(Int32)
  case boolean(Bool)
  case other
}

/// A private connection to a bus (libdbus): opened from an address, never auto-launched, and
/// never the process's shared connection, so closing it cannot disturb another user of the bus.
///
/// Used by one thread at a time: the owner reads the settings at start, then hands it to the
/// observing thread.
final class DBusConnection: @unchecked Sendable {
  private let connection: OpaquePointer

  /// Opens and registers a private connection, or returns `nil` with the reason.
  static func open(address: String) -> Result<DBusConnection, DesktopSettingsError> {
    dbus_threads_init_default()
    var error = DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    guard let connection = dbus_connection_open_private(address, &error) else {
      return .failure(.noBus(reason: Self.message(error) ?? "cannot connect"))
    }
    dbus_connection_set_exit_on_disconnect(connection, 0)
    guard dbus_bus_register(connection, &error) != 0 else {
      let reason = Self.message(error) ?? "cannot register on the bus"
      dbus_connection_close(connection)
      dbus_connection_unref(connection)
      return .failure(.noBus(reason: reason))
    }
    return .success(DBusConnection(connection))
  }

  private init(_ connection: OpaquePointer) { self.connection = connection }

  deinit {
    dbus_connection_close(connection)
    dbus_connection_unref(connection)
  }

  private static func message(_ error: DBusError) -> String? {
    var error = error
    guard dbus_error_is_set(&error) != 0 else { return nil }
    let name = error.name.map { String(cString: $0) } ?? ""
    let text = error.message.map { String(cString: $0) } ?? ""
    return text.isEmpty ? name : text
  }

  /// Calls a method taking two strings and returning one variant; returns the variant's value,
  /// or the D-Bus error's name.
  func callReturningVariant(
    destination: String, path: String, interface: String, method: String,
    arguments: (String, String), timeoutMilliseconds: Int32
  ) -> Result<DBusSettingValue, DBusCallError> {
    guard let message = dbus_message_new_method_call(destination, path, interface, method) else {
      return .failure(DBusCallError(name: "org.freedesktop.DBus.Error.NoMemory", message: ""))
    }
    defer { dbus_message_unref(message) }
    var iter = DBusMessageIter()
    dbus_message_iter_init_append(message, &iter)
    Self.appendString(arguments.0, to: &iter)
    Self.appendString(arguments.1, to: &iter)
    var error = DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    guard
      let reply = dbus_connection_send_with_reply_and_block(
        connection, message, timeoutMilliseconds, &error)
    else {
      let name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
      let text = error.message.map { String(cString: $0) } ?? ""
      return .failure(DBusCallError(name: name, message: text))
    }
    defer { dbus_message_unref(reply) }
    var read = DBusMessageIter()
    guard dbus_message_iter_init(reply, &read) != 0 else { return .success(.other) }
    return .success(Self.value(at: &read))
  }

  /// Subscribes to a signal by a match rule.
  func addMatch(_ rule: String) -> Bool {
    var error = DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    dbus_bus_add_match(connection, rule, &error)
    return dbus_error_is_set(&error) == 0
  }

  /// Waits up to `timeoutMilliseconds` for traffic and hands each `interface.member` signal's
  /// (string, string, variant) arguments to `body`. Returns `false` once the bus is gone.
  func dispatchSignals(
    interface: String, member: String, timeoutMilliseconds: Int32,
    _ body: (String, String, DBusSettingValue) -> Void
  ) -> Bool {
    guard dbus_connection_read_write(connection, timeoutMilliseconds) != 0 else { return false }
    while let message = dbus_connection_pop_message(connection) {
      defer { dbus_message_unref(message) }
      guard dbus_message_is_signal(message, interface, member) != 0 else { continue }
      var iter = DBusMessageIter()
      guard dbus_message_iter_init(message, &iter) != 0,
        let first = Self.string(at: &iter), dbus_message_iter_next(&iter) != 0,
        let second = Self.string(at: &iter), dbus_message_iter_next(&iter) != 0
      else { continue }
      body(first, second, Self.value(at: &iter))
    }
    return dbus_connection_get_is_connected(connection) != 0
  }

  static func appendString(_ text: String, to iter: inout DBusMessageIter) {
    text.withCString { pointer in
      var p: UnsafePointer<CChar>? = pointer
      _ = dbus_message_iter_append_basic(&iter, DBusType.string, &p)
    }
  }

  static func string(at iter: inout DBusMessageIter) -> String? {
    guard dbus_message_iter_get_arg_type(&iter) == DBusType.string else { return nil }
    var p: UnsafePointer<CChar>?
    dbus_message_iter_get_basic(&iter, &p)
    return p.map { String(cString: $0) }
  }

  /// The value at `iter`, looking through variants (the deprecated `Read` wraps the value in a
  /// second variant; `ReadOne` and `SettingChanged` in one). At most four levels are opened.
  static func value(at iter: inout DBusMessageIter, depth: Int = 0) -> DBusSettingValue {
    switch dbus_message_iter_get_arg_type(&iter) {
    case DBusType.variant where depth < 4:
      var inner = DBusMessageIter()
      dbus_message_iter_recurse(&iter, &inner)
      return value(at: &inner, depth: depth + 1)
    case DBusType.uint32:
      var v: UInt32 = 0
      dbus_message_iter_get_basic(&iter, &v)
      return .unsigned(v)
    case DBusType.int32:
      var v: Int32 = 0
      dbus_message_iter_get_basic(&iter, &v)
      return .signed(v)
    case DBusType.boolean:
      var v: UInt32 = 0
      dbus_message_iter_get_basic(&iter, &v)
      return .boolean(v != 0)
    default:
      return .other
    }
  }
}

/// A D-Bus error reply: its name (such as `org.freedesktop.portal.Error.NotFound`) and text.
struct DBusCallError: Error, Equatable {
  var name: String
  var message: String
}
