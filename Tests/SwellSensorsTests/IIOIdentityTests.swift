import Foundation
import SwellMotion
import SwellTestSupport
import Testing

@testable import SwellSensors

/// Opens a polled source over a fake tree (polled: nothing is read before `next()`).
private func source(_ tree: FakeIIOTree, name: String? = nil) throws -> IIOSource {
  var c = IIOSourceConfiguration()
  c.sysfsRoot = tree.sysfs
  c.devRoot = tree.dev
  c.mode = .polled
  c.deviceName = name
  return try IIOSource(configuration: c)
}

@Suite("The stable identity of IIO devices")
private struct IIOIdentityTests {
  static let parent = "platform/soc/i2c-1/1-0068"

  @Test("the identity is the chip name and the parent device's path, and survives a renumbering")
  func survivesRenumbering() throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160()
    try tree.attach("iio:device0", toParent: Self.parent)
    let first = try source(tree)
    #expect(first.deviceIdentity == "iio:bmi160@platform/soc/i2c-1/1-0068")
    #expect(first.parts.first?.device.location == Self.parent)
    // The next boot numbers it iio:device3 (another IIO device probed first).
    try tree.renumber("iio:device0", underParent: Self.parent, to: 3)
    let second = try source(tree)
    #expect(second.parts.first?.device.id == "iio:device3")
    #expect(second.deviceIdentity == first.deviceIdentity)
  }

  @Test("a label names the device when the firmware gives one")
  func label() throws {
    let tree = try FakeIIOTree()
    try tree.addBMI160()
    try tree.attach("iio:device0", toParent: Self.parent)
    try tree.write("iio:device0/label", "accel-display")
    let s = try source(tree)
    #expect(s.parts.first?.device.label == "accel-display")
    #expect(s.deviceIdentity == "iio:bmi160#accel-display")
  }

  @Test("two chips on different buses have different identities")
  func distinct() throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "bmi160", types: ["accel", "anglvel"], buffered: false)
    try tree.addDevice(1, name: "bmi160", types: ["accel", "anglvel"], buffered: false)
    try tree.attach("iio:device0", toParent: "platform/soc/i2c-1/1-0068")
    try tree.attach("iio:device1", toParent: "platform/soc/i2c-2/2-0069")
    let a = try source(tree, name: "iio:device0")
    let b = try source(tree, name: "iio:device1")
    #expect(a.deviceIdentity == "iio:bmi160@platform/soc/i2c-1/1-0068")
    #expect(b.deviceIdentity == "iio:bmi160@platform/soc/i2c-2/2-0069")
  }

  @Test("a split device is named by both chips and the gyroscope's place")
  func split() throws {
    let tree = try FakeIIOTree()
    try tree.addDevice(0, name: "lsm6dsm_accel", types: ["accel"], buffered: false)
    try tree.addDevice(1, name: "lsm6dsm_gyro", types: ["anglvel"], buffered: false)
    try tree.attach("iio:device0", toParent: "platform/soc/spi0/spi0.0")
    try tree.attach("iio:device1", toParent: "platform/soc/spi0/spi0.1")
    let s = try source(tree)
    #expect(s.deviceIdentity == "iio:lsm6dsm_accel+lsm6dsm_gyro@platform/soc/spi0/spi0.1")
  }

  @Test("no identity without a gyroscope, or when the entry does not lead into devices/")
  func none() throws {
    let plain = try FakeIIOTree()
    try plain.addBMI160()
    #expect(try source(plain).deviceIdentity == nil)
    let accelOnly = try FakeIIOTree()
    try accelOnly.addDevice(0, name: "mma8452", types: ["accel"], buffered: false)
    try accelOnly.attach("iio:device0", toParent: Self.parent)
    #expect(try source(accelOnly).deviceIdentity == nil)
  }

  @Test("the parent location is the path between devices/ and the device folder")
  func parentLocation() {
    #expect(
      IIOSysfs.parentLocation("/sys/devices/platform/soc/i2c-1/1-0068/iio:device0")
        == "platform/soc/i2c-1/1-0068")
    #expect(IIOSysfs.parentLocation("/sys/bus/iio/devices/iio:device0") == nil)
    #expect(IIOSysfs.parentLocation("/tmp/x/sys/iio:device0") == nil)
    #expect(IIOSysfs.parentLocation(nil) == nil)
  }
}
