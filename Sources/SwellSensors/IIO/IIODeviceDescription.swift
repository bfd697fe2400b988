import Foundation
import SwellGeometry

/// What a motion sensor offers, as `swell sensors` lists it: an IIO device's channels, rates,
/// scales, mount matrices and whether buffered reads can work.
public struct IIODeviceDescription: Hashable, Sendable {
  /// One channel type of the device (accelerometer, gyroscope or magnetometer).
  public struct ChannelGroup: Hashable, Sendable {
    /// The type.
    public var type: IIOChannelType
    /// The axes present, `x`, `y`, `z` in channel order.
    public var axes: [String]
    /// The distinct scales of its channels, ascending (SI units per count: m/s², rad/s, Gauss).
    public var scales: [Double]
    /// The distinct offsets of its channels, ascending (counts).
    public var offsets: [Double]
    /// The mount matrix (identity when the device has none).
    public var mountMatrix: Matrix3
    /// The unit of a scaled reading (`m/s²`, `rad/s`, `Gauss`).
    public var unit: String {
      switch type {
      case .accel: return "m/s²"
      case .anglvel: return "rad/s"
      case .magn: return "Gauss"
      }
    }
  }

  /// Whether the device's character device is there for buffered reads.
  public enum CharacterDevice: String, Hashable, Sendable {
    /// It exists and this process may read it.
    case readable
    /// It exists and this process may not read it.
    case notReadable = "not readable"
    /// It does not exist.
    case missing
  }

  /// The device's directory name (`iio:device0`).
  public var id: String
  /// The chip name (`bmi160`).
  public var name: String
  /// Its motion channel types, in order.
  public var channelGroups: [ChannelGroup]
  /// The sampling frequency, Hz, if reported.
  public var samplingFrequency: Double?
  /// The frequencies it offers, Hz.
  public var availableFrequencies: [Double]
  /// True when every channel type can be read through the kernel buffer.
  public var canBuffer: Bool
  /// The buffer folder's name (`buffer0`), if any.
  public var bufferDirectory: String?
  /// The character device's path (`/dev/iio:device0`).
  public var characterDevicePath: String
  /// Whether the character device is there and readable.
  public var characterDevice: CharacterDevice

  /// Describes a device.
  ///
  /// - Parameters:
  ///   - device: The device, as ``IIOSysfs`` reads it.
  ///   - devRoot: The folder of the `iio:deviceN` character devices (`/dev`).
  public init(_ device: IIODevice, devRoot: String) {
    id = device.id
    name = device.name
    channelGroups = device.types.map { t in
      let c = device.channels(of: t)
      return ChannelGroup(
        type: t, axes: c.map { ["x", "y", "z"][$0.axis] }, scales: Set(c.map(\.scale)).sorted(),
        offsets: Set(c.map(\.offset)).sorted(), mountMatrix: device.mountMatrices[t] ?? .identity)
    }
    samplingFrequency = device.samplingFrequency
    availableFrequencies = device.availableFrequencies
    canBuffer = device.types.allSatisfy { device.canBuffer($0) }
    bufferDirectory = device.bufferDirectory
    characterDevicePath = devRoot + "/" + device.id
    if !FileManager.default.fileExists(atPath: characterDevicePath) {
      characterDevice = .missing
    } else {
      characterDevice =
        FileManager.default.isReadableFile(atPath: characterDevicePath) ? .readable : .notReadable
    }
  }
}

extension IIOSysfs {
  /// Describes every motion sensor under the sysfs root.
  ///
  /// - Parameter devRoot: The folder of the `iio:deviceN` character devices (`/dev`).
  /// - Returns: The descriptions, in device order (empty when there is none).
  /// - Throws: ``IIOError`` when the root cannot be read.
  public func describeDevices(devRoot: String = "/dev") throws(IIOError) -> [IIODeviceDescription] {
    try devices().map { IIODeviceDescription($0, devRoot: devRoot) }
  }
}
