import Foundation
import TestSupport

@testable import WidgetDesign

func day(_ n: Int) -> Date { fixedNow.addingTimeInterval(Double(n) * 86_400) }

func json(_ text: String) -> Data { Data(text.utf8) }
