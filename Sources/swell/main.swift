import Foundation
import SwellTool

exit(SwellTool.main(Array(CommandLine.arguments.dropFirst())))
