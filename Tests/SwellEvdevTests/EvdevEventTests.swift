import Testing

@testable import SwellEvdev

@Suite("evdev events")
struct EvdevEventTests {
  @Test("an event's time joins seconds and microseconds")
  func eventTime() {
    let e = EvdevEvent(seconds: 12, microseconds: 345_678, type: .absolute, code: 0, value: 1)
    #expect(e.time == 12.345678)
    #expect(e.timeMicroseconds == 12_345_678)
  }
}
