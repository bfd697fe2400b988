/// An error the ``MotionManager`` reports through its handler or update stream, mirroring
/// CoreMotion's `CMError` (codes 100...113, the same raw values).
public struct MotionManagerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The error codes of `CMError`, with Apple's raw values.
  public enum Code: Int, Sendable, Hashable, CaseIterable {
    /// `CMErrorNULL` (100).
    case null = 100
    /// `CMErrorDeviceRequiresMovement` (101): the magnetometer needs calibrating.
    case deviceRequiresMovement = 101
    /// `CMErrorTrueNorthNotAvailable` (102): no declination was given for true north.
    case trueNorthNotAvailable = 102
    /// `CMErrorUnknown` (103).
    case unknown = 103
    /// `CMErrorMotionActivityNotAvailable` (104).
    case motionActivityNotAvailable = 104
    /// `CMErrorMotionActivityNotAuthorized` (105).
    case motionActivityNotAuthorized = 105
    /// `CMErrorMotionActivityNotEntitled` (106).
    case motionActivityNotEntitled = 106
    /// `CMErrorInvalidParameter` (107).
    case invalidParameter = 107
    /// `CMErrorInvalidAction` (108).
    case invalidAction = 108
    /// `CMErrorNotAvailable` (109): the source cannot deliver (failed, or lacks a sensor).
    case notAvailable = 109
    /// `CMErrorNotEntitled` (110).
    case notEntitled = 110
    /// `CMErrorNotAuthorized` (111).
    case notAuthorized = 111
    /// `CMErrorNilData` (112).
    case nilData = 112
    /// `CMErrorSize` (113).
    case size = 113
  }

  /// The CoreMotion-style code.
  public var code: Code
  /// A one-line explanation.
  public var message: String
  /// True for a report that does not end updates: a transient source error, after which the
  /// manager asks the source again (CoreMotion has no such case; its handlers get these as
  /// errors with updates going on).
  public var isTransient: Bool
  /// For an error of the source, the source's own one-line text (a file's line and column, a
  /// device's reason); `nil` for the manager's own errors.
  public var sourceMessage: String?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: The code.
  ///   - message: A one-line explanation.
  ///   - isTransient: Whether updates go on (default false).
  ///   - sourceMessage: The source's own text, for an error of the source.
  public init(
    _ code: Code, _ message: String, isTransient: Bool = false, sourceMessage: String? = nil
  ) {
    self.code = code
    self.message = message
    self.isTransient = isTransient
    self.sourceMessage = sourceMessage
  }

  /// `MESSAGE (CMError CODE)`.
  public var description: String { "\(message) (CMError \(code.rawValue))" }
}
