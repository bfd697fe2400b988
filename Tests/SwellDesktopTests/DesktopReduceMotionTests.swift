import Foundation
import SwellDesktop
import SwellTestSupport
import Synchronization
import Testing

/// The desktop's Reduce Motion, read and followed over a private session bus with a fake portal.
@Suite("desktop Reduce Motion over D-Bus (a private bus, a fake portal)")
private struct DesktopReduceMotionTests {
  static let appearance = "org.freedesktop.appearance"
  static let gnome = "org.gnome.desktop.interface"

  @Test(
    "the portal's reduced-motion: 1 is reduced, 0 and unknown values are no preference",
    arguments: [(UInt32(0), false), (1, true), (7, false)])
  func portalValue(value: UInt32, expected: Bool) throws {
    let bus = try PrivateSessionBus()
    let portal = try FakePortal(
      address: bus.address,
      settings: [FakePortal.key(Self.appearance, "reduced-motion"): .unsigned(value)])
    defer { portal.stop() }
    let setting = DesktopReduceMotion(busAddress: bus.address)
    #expect(setting.isReduceMotionEnabled == expected)
    #expect(setting.origin == .portal)
    #expect(setting.busProblem == nil)
  }

  @Test("an older portal with only Read (the value in a second variant) is read the same")
  func olderPortal() throws {
    let bus = try PrivateSessionBus()
    let portal = try FakePortal(
      address: bus.address,
      settings: [FakePortal.key(Self.appearance, "reduced-motion"): .unsigned(1)],
      hasReadOne: false)
    defer { portal.stop() }
    let setting = DesktopReduceMotion(busAddress: bus.address)
    #expect(setting.isReduceMotionEnabled)
    #expect(setting.origin == .portal)
    #expect(portal.calls.load(ordering: .relaxed) == 1)
  }

  @Test(
    "without reduced-motion, GNOME's enable-animations is used, negated",
    arguments: [(false, true), (true, false)])
  func gnomeFallback(animations: Bool, expected: Bool) throws {
    let bus = try PrivateSessionBus()
    let portal = try FakePortal(
      address: bus.address,
      settings: [FakePortal.key(Self.gnome, "enable-animations"): .boolean(animations)])
    defer { portal.stop() }
    let setting = DesktopReduceMotion(busAddress: bus.address)
    #expect(setting.isReduceMotionEnabled == expected)
    #expect(setting.origin == .gnomeAnimations)
  }

  @Test("a bus without a portal, and no bus at all, read as no preference without an error")
  func nothingToRead() throws {
    let bus = try PrivateSessionBus()
    let quiet = DesktopReduceMotion(busAddress: bus.address)
    #expect(!quiet.isReduceMotionEnabled)
    #expect(quiet.origin == nil)
    #expect(quiet.busProblem == nil)

    let folder = try scratchFolder("nobus")
    let none = DesktopReduceMotion(busAddress: "unix:path=" + folder.path + "/absent")
    #expect(!none.isReduceMotionEnabled)
    #expect(none.origin == nil)
    guard case .noBus = none.busProblem else {
      Issue.record("expected a bus problem, got \(String(describing: none.busProblem))")
      return
    }
    none.startObserving()
    none.stopObserving()
  }

  @Test("changes are followed live: the handler and the notification see each new value")
  func followsChanges() throws {
    let bus = try PrivateSessionBus()
    let portal = try FakePortal(
      address: bus.address,
      settings: [FakePortal.key(Self.appearance, "reduced-motion"): .unsigned(0)])
    defer { portal.stop() }
    let setting = DesktopReduceMotion(busAddress: bus.address)
    #expect(!setting.isReduceMotionEnabled)
    let seen = Mutex<[Bool]>([])
    let notified = Atomic<Int>(0)
    let observer = NotificationCenter.default.addObserver(
      forName: DesktopReduceMotion.statusDidChangeNotification, object: setting, queue: nil
    ) { _ in notified.add(1, ordering: .relaxed) }
    defer { NotificationCenter.default.removeObserver(observer) }
    setting.startObserving { value in seen.withLock { $0.append(value) } }
    defer { setting.stopObserving() }
    // The match rule is in place once startObserving returns; a change of another key and a
    // repeat of the same value are not changes.
    portal.change(Self.appearance, "color-scheme", to: .unsigned(1))
    portal.change(Self.appearance, "reduced-motion", to: .unsigned(1))
    #expect(waitFor(seconds: 10) { seen.withLock { $0 } == [true] })
    #expect(setting.isReduceMotionEnabled)
    portal.change(Self.appearance, "reduced-motion", to: .unsigned(1))
    portal.change(Self.appearance, "reduced-motion", to: .unsigned(0))
    #expect(waitFor(seconds: 10) { seen.withLock { $0 } == [true, false] })
    #expect(!setting.isReduceMotionEnabled)
    #expect(notified.load(ordering: .relaxed) == 2)
  }
}
