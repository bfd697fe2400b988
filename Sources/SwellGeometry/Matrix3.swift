/// A 3×3 matrix of `Double`, stored as three rows.
///
/// Used for rotation matrices (`CMAttitude.rotationMatrix`) and for the Linux IIO mount matrix.
/// `m * v` treats `v` as a column vector.
public struct Matrix3: Hashable, Sendable, Codable {
  /// The first row.
  public var row0: Vector3
  /// The second row.
  public var row1: Vector3
  /// The third row.
  public var row2: Vector3

  /// Creates a matrix from its rows.
  ///
  /// - Parameters:
  ///   - r0: The first row.
  ///   - r1: The second row.
  ///   - r2: The third row.
  public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
    row0 = r0
    row1 = r1
    row2 = r2
  }

  /// Creates a matrix from nine values in row-major order.
  ///
  /// - Parameter values: Exactly nine values; other counts are a programmer error.
  public init(rowMajor values: [Double]) {
    precondition(values.count == 9, "Matrix3(rowMajor:) needs exactly nine values")
    self.init(
      rows: Vector3(values[0], values[1], values[2]), Vector3(values[3], values[4], values[5]),
      Vector3(values[6], values[7], values[8]))
  }

  /// The identity matrix.
  public static let identity = Matrix3(rows: .unitX, .unitY, .unitZ)

  /// The element at a row and column, both in 0...2.
  public subscript(row: Int, column: Int) -> Double {
    get {
      let r = row == 0 ? row0 : (row == 1 ? row1 : row2)
      return column == 0 ? r.x : (column == 1 ? r.y : r.z)
    }
    set {
      var r = row == 0 ? row0 : (row == 1 ? row1 : row2)
      switch column {
      case 0: r.x = newValue
      case 1: r.y = newValue
      default: r.z = newValue
      }
      switch row {
      case 0: row0 = r
      case 1: row1 = r
      default: row2 = r
      }
    }
  }

  /// The first column.
  public var column0: Vector3 { Vector3(row0.x, row1.x, row2.x) }
  /// The second column.
  public var column1: Vector3 { Vector3(row0.y, row1.y, row2.y) }
  /// The third column.
  public var column2: Vector3 { Vector3(row0.z, row1.z, row2.z) }

  /// The transpose (the inverse, for a rotation matrix).
  public var transposed: Matrix3 { Matrix3(rows: column0, column1, column2) }

  /// The determinant.
  public var determinant: Double { row0.dot(row1.cross(row2)) }

  /// The matrix-vector product, `v` as a column.
  public static func * (m: Matrix3, v: Vector3) -> Vector3 {
    Vector3(m.row0.dot(v), m.row1.dot(v), m.row2.dot(v))
  }

  /// The matrix product.
  public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
    Matrix3(
      rows: Vector3(a.row0.dot(b.column0), a.row0.dot(b.column1), a.row0.dot(b.column2)),
      Vector3(a.row1.dot(b.column0), a.row1.dot(b.column1), a.row1.dot(b.column2)),
      Vector3(a.row2.dot(b.column0), a.row2.dot(b.column1), a.row2.dot(b.column2)))
  }
}
