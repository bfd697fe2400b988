import SwellLayers
import Synchronization
import Testing

@testable import SwellEffects

/// Counts how often its values are asked for (a process-wide counter: one test uses it).
private let evaluations = Atomic<Int>(0)

/// An effect that adds 1 to `position.x` and counts its evaluations.
private struct CountingEffect: MotionEffect {
  var id: Int

  func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset) -> [String:
    LayerValue]?
  {
    evaluations.add(1, ordering: .relaxed)
    return ["position.x": .number(1)]
  }
}

@Suite("Hostile effect counts")
private struct HostileEffectsTests {
  @Test("attaching 8,000 motion effects to one layer evaluates each effect once (linear time)")
  func manyEffectsAttachInLinearTime() {
    let layer = Layer()
    evaluations.store(0, ordering: .relaxed)
    let count = 8_000
    for i in 0..<count { layer.addMotionEffect(CountingEffect(id: i)) }
    // A quadratic attach re-evaluates every attached effect on each add: 32 million calls.
    #expect(evaluations.load(ordering: .relaxed) == count)
    #expect(layer.motionEffects.count == count)
    evaluations.store(0, ordering: .relaxed)
    layer.applyMotionEffects(for: ViewerOffset(horizontal: 0.5, vertical: 0))
    #expect(evaluations.load(ordering: .relaxed) == count)
    #expect(layer.motionEffectValues(for: .zero)["position.x"] == .number(Double(count)))
  }
}
