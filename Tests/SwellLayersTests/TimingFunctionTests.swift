import SwellLayers
import SwellTestSupport
import Testing

@Suite("TimingFunction")
private struct TimingFunctionTests {
  static let named: [(String, TimingFunction, [Double])] = [
    ("linear", .linear, [0, 0, 1, 1]),
    ("easeIn", .easeIn, [0.42, 0, 1, 1]),
    ("easeOut", .easeOut, [0, 0, 0.58, 1]),
    ("easeInEaseOut", .easeInEaseOut, [0.42, 0, 0.58, 1]),
    ("default", .default, [0.25, 0.1, 0.25, 1]),
  ]

  @Test("Named curves have Core Animation's control points and names", arguments: 0..<5)
  func controlPoints(index: Int) throws {
    let (name, f, c) = Self.named[index]
    #expect(f.control1.x == c[0] && f.control1.y == c[1])
    #expect(f.control2.x == c[2] && f.control2.y == c[3])
    #expect(TimingFunction(name: name) == f)
  }

  @Test("Name lookup: UIKit's easeInOut alias, unknown names")
  func names() {
    #expect(TimingFunction(name: "easeInOut") == .easeInEaseOut)
    #expect(TimingFunction(name: "bounce") == nil)
    #expect(TimingFunction(name: "") == nil)
  }

  @Test("Named curves match an independent bisection solve", arguments: 0..<5)
  func namedMatchReference(index: Int) {
    let (name, f, c) = Self.named[index]
    for i in 0...1000 {
      let x = Double(i) / 1000
      let expected = referenceTiming(c[0], c[1], c[2], c[3], at: x)
      #expect(abs(f.value(at: x) - expected) < 1e-9, "\(name) at x = \(x)")
    }
  }

  @Test("Random curves match the reference, overshooting ones included", arguments: propertySeeds)
  func randomMatchReference(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<100 {
      let c = [
        Double.random(in: 0...1, using: &rng), Double.random(in: -0.5...1.5, using: &rng),
        Double.random(in: 0...1, using: &rng), Double.random(in: -0.5...1.5, using: &rng),
      ]
      let f = TimingFunction(controlPoints: c[0], c[1], c[2], c[3])
      for _ in 0..<20 {
        let x = Double.random(in: 0...1, using: &rng)
        let expected = referenceTiming(c[0], c[1], c[2], c[3], at: x)
        #expect(abs(f.value(at: x) - expected) < 1e-8, "seed \(seed): \(c) at x = \(x)")
      }
    }
  }

  @Test("Endpoints are exact and inputs are clamped", arguments: 0..<5)
  func endpoints(index: Int) {
    let f = Self.named[index].1
    #expect(f.value(at: 0) == 0)
    #expect(f.value(at: 1) == 1)
    #expect(f.value(at: -3) == 0)
    #expect(f.value(at: 7) == 1)
  }

  @Test("Named curves are monotonic", arguments: 0..<5)
  func monotonic(index: Int) {
    let f = Self.named[index].1
    var last = 0.0
    for i in 1...10_000 {
      let v = f.value(at: Double(i) / 10_000)
      #expect(v >= last - 1e-15, "\(Self.named[index].0) at \(i)")
      last = v
    }
  }

  @Test("Ease-in-out is point-symmetric: E(x) + E(1 − x) = 1")
  func easeInOutSymmetry() {
    let e = TimingFunction.easeInEaseOut
    #expect(abs(e.value(at: 0.5) - 0.5) < 1e-12)
    for i in 0...500 {
      let x = Double(i) / 1000
      #expect(abs(e.value(at: x) + e.value(at: 1 - x) - 1) < 1e-12, "x = \(x)")
    }
    // Ease-in and ease-out mirror each other: In(x) = 1 − Out(1 − x).
    for i in 0...100 {
      let x = Double(i) / 100
      #expect(
        abs(TimingFunction.easeIn.value(at: x) - (1 - TimingFunction.easeOut.value(at: 1 - x)))
          < 1e-12)
    }
  }

  @Test("Linear is the identity; ease-in starts slow and ease-out starts fast")
  func shapes() {
    for i in 0...100 {
      let x = Double(i) / 100
      #expect(TimingFunction.linear.value(at: x) == x)
    }
    #expect(TimingFunction.easeIn.value(at: 0.25) < 0.25)
    #expect(TimingFunction.easeOut.value(at: 0.25) > 0.25)
    #expect(TimingFunction.easeInEaseOut.value(at: 0.25) < 0.25)
    #expect(TimingFunction.easeInEaseOut.value(at: 0.75) > 0.75)
  }
}
