import Foundation
import SwellTestSupport
import Testing

@testable import SwellSensors

@Suite("LiveSourceSpec: one parser for iio[:NAME], udp:PORT and phone:URL")
private struct LiveSourceSpecTests {
  @Test("good words")
  func good() throws {
    #expect(try LiveSourceSpec(parsing: "iio") == .iio(device: nil))
    #expect(try LiveSourceSpec(parsing: "iio:bmi160") == .iio(device: "bmi160"))
    #expect(try LiveSourceSpec(parsing: "udp:5555") == .udp(port: 5555))
    let phone = try LiveSourceSpec(parsing: "phone:http://192.168.1.20:8080")
    #expect(phone.kind == .phone)
    #expect(phone == .phone(try PhyphoxAddress(parsing: "192.168.1.20:8080")))
    for word in ["iio", "iio:x", "udp:1", "phone:x"] { #expect(LiveSourceSpec.names(word)) }
    for word in ["keyboard", "motion.csv", "io"] { #expect(!LiveSourceSpec.names(word)) }
  }

  @Test(
    "bad words are usage errors with one line naming the part",
    arguments: [
      ("udp:99999", "udp:PORT needs a port number 0...65535, got '99999'"),
      ("udp:", "udp:PORT needs a port number 0...65535, got ''"),
      ("phone:https://10.0.0.2", "'https://10.0.0.2': phyphox serves plain http, not https"),
      (
        "pigeon",
        "unknown source 'pigeon'; expected iio, iio:NAME, udp:PORT, phone:URL, "
          + "dsu[:HOST[:PORT]][#SLOT] or evdev[:NAME|PATH]"
      ),
    ])
  func bad(word: String, message: String) {
    do {
      _ = try LiveSourceSpec(parsing: word)
      Issue.record("\(word) parsed")
    } catch {
      #expect(error.isUsage && error.message == message)
    }
  }

  @Test("opening: a missing sysfs tree is a failure of the source, not a usage error")
  func openFailure() throws {
    var settings = LiveSourceSettings()
    settings.iio.sysfsRoot = "/nonexistent-swell-iio"
    do {
      _ = try LiveSourceSpec.iio(device: nil).open(settings)
      Issue.record("opened")
    } catch {
      #expect(!error.isUsage && error.message.contains("/nonexistent-swell-iio"))
    }
  }
}
