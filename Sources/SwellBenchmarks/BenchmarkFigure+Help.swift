// What each group's figures measure, for `swell bench --help` (docs/formats.md names them too).

extension FusionBenchmark {
  package static var figureHelp: [BenchmarkFigureHelp] {
    [
      .init("fusion.9d.samples_per_s", "9D fusion (with magnetometer) throughput, samples/s"),
      .init("fusion.6d.samples_per_s", "6D fusion throughput, samples/s"),
      .init(
        "fusion.baseline.gyro_integration.samples_per_s",
        "the baseline: plain quaternion gyroscope integration of the same samples, samples/s"),
      .init(
        "fusion.evdev_decode.samples_per_s",
        "decoding the same motion as a DualSense's evdev events, samples/s"),
      .init(
        "fusion.evdev_decode.ratio_to_6d",
        "the decoder's rate over 6D fusion's (a DualSense's events, eight a sample, in reads of "
          + "64), in the same run: above 10, decoding costs under a tenth of fusion per sample, x"),
      .init(
        "fusion.evdev_decode_and_6d.ratio_to_6d",
        "the time to decode those events, copy the samples into the arrays 6D fusion takes and "
          + "fuse them, over the time to fuse the same samples alone, timed in turn in the same "
          + "run: 1.0 when decoding costs nothing beside fusion, x"),
      .init(
        "fusion.device_motion.samples_per_s",
        "6D device motion sample by sample (DeviceMotionFuser.update, the path of MotionManager "
          + "and swell fuse) on the decoded samples, samples/s"),
      .init(
        "fusion.evdev_and_device_motion.ratio",
        "the time to decode the events and give each sample to DeviceMotionFuser, over the time "
          + "to give it the same samples alone, timed in turn in the same run: the cost of "
          + "decoding beside per-sample fusion; 1.0 when it costs nothing, x"),
      .init(
        "fusion.manager.samples_per_s",
        "a MotionManager delivering every device motion (deviceMotionSamples) from a source of "
          + "decoded samples, samples/s"),
      .init(
        "fusion.manager_evdev.ratio",
        "the time of a MotionManager over a source decoding the events in reads of 64 (as the "
          + "evdev source does, without reading a node), over the time of one over the same "
          + "samples decoded beforehand, timed in turn in the same run: what decoding adds to "
          + "the path --motion evdev takes; 1.0 when it costs nothing, x"),
    ]
  }
}

extension RenderBenchmark {
  package static var figureHelp: [BenchmarkFigureHelp] {
    [
      .init(
        "render.waterwave.1170x2532.ms",
        "one waterwave frame (water tilted 20 degrees) drawn by the layer renderer, surface "
          + "included, ms"),
      .init(
        "render.waterwave.1170x2532.baseline_ms",
        "the baseline: the same wave paths filled by Cairo directly, ms"),
      .init(
        "render.waterwave.1170x2532.frame_ms",
        "the frame drawn into one reused image on one thread, as the live window draws, ms"),
      .init(
        "render.waterwave.1170x2532.banded_ms",
        "the same in horizontal bands on every core, ms"),
      .init(
        "render.waterwave.1170x2532.presentation_ms",
        "building the frame's presentation tree (wave paths), ms"),
    ]
  }
}

extension WaterBenchmark {
  package static var figureHelp: [BenchmarkFigureHelp] {
    [
      .init(
        "water.classic.1170x2532.frame_ms",
        "one 120 Hz waterwave frame with the classic response under a shaken device, motion "
          + "fed, scene stepped, tree built and drawn, ms"),
      .init(
        "water.physical.1170x2532.frame_ms",
        "the same with the physical response (same frames, same run), ms"),
      .init(
        "water.physical.1170x2532.ratio_to_classic",
        "each physical frame over the classic frames' median (timed in turn, frame by frame, in "
          + "the same run), x"),
      .init(
        "water.classic.1170x2532.step_ms",
        "the classic response's step alone (motion fed, scene advanced, nothing drawn), ms"),
      .init("water.physical.1170x2532.step_ms", "the physical response's step alone, ms"),
      .init(
        "water.glass.1170x2532.frame_ms",
        "the glass scene (physical water in a round-bottomed glass), step and drawing, ms"),
    ]
  }
}

extension ExportBenchmark {
  package static var figureHelp: [BenchmarkFigureHelp] {
    let size = "WxH is 1170x2532 (390x844 @3x; 390x844 @1x with --quick)"
    return [
      .init(
        "export.png_sequence.WxH.frame_ms",
        "swell render of waterwave to a numbered PNG sequence, scene stepped, frames drawn, "
          + "encoded and written, ms per frame; \(size)"),
      .init(
        "export.png_sequence.WxH.ffmpeg_ms",
        "the baseline, beside each run (first in every other one): ffmpeg writing the same "
          + "frames (raw BGRA that Swell "
          + "drew, from a file) as RGB PNGs with its own encoder and settings, start-up "
          + "included, ms per frame"),
      .init(
        "export.png_sequence.WxH.ratio_to_ffmpeg",
        "Swell's time over ffmpeg's, run by run, x (below 1: Swell is faster)"),
      .init("export.png_sequence.WxH.kib_per_frame", "Swell's PNG files' mean size, KiB"),
      .init("export.png_sequence.WxH.ffmpeg_kib_per_frame", "ffmpeg's PNG files' mean size, KiB"),
      .init(
        "export.mp4.WxH.frame_ms",
        "swell render of the same frames to MP4 (libx264 \(preset), swell render's default), "
          + "ms per frame, timed after one untimed MP4 pair (a warm-up)"),
      .init(
        "export.mp4.WxH.ffmpeg_ms",
        "the baseline: ffmpeg encoding the raw BGRA frames from a file, converting them "
          + "itself (BT.709 conversion filter and tags, same preset and CRF; Swell converts "
          + "before its pipe), ms per frame"),
      .init("export.mp4.WxH.ratio_to_ffmpeg", "Swell's time over ffmpeg's, run by run, x"),
    ]
      + ["png_sequence", "mp4"].flatMap { output -> [BenchmarkFigureHelp] in
        [
          .init(
            "export.\(output).WxH.cpu_ms",
            "processor time (user and system) of Swell's export, its ffmpeg child included, ms "
              + "per frame"),
          .init(
            "export.\(output).WxH.ffmpeg_cpu_ms", "processor time of ffmpeg's run, ms per frame"),
          .init(
            "export.\(output).WxH.cpu_ratio_to_ffmpeg",
            "Swell's processor time over ffmpeg's, run by run, x: steadier than the wall-clock "
              + "ratio when other work shares the machine"),
        ]
      }
  }
}
