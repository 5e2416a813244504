import Foundation
import HomeScreen
import Testing

/// The home screen's Undo offers: used once, gone after the 8 s shown and the grace, the newest kept.
@Suite struct UndoOffersTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anOfferIsTakenOnceWithinItsTime() throws {
        let offers = UndoOffers()
        let token = offers.offer({ "Reopened 'A'." }, now: start)
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
        let undo = try #require(offers.take(token, now: start.addingTimeInterval(UndoOffers.shownSeconds)))
        #expect(try undo() == "Reopened 'A'.")
        #expect(offers.take(token, now: start.addingTimeInterval(1)) == nil, "used twice")
        #expect(offers.take("0" + token.dropFirst(), now: start) == nil)
    }

    @Test func anOfferExpiresAfterTheNoticeAndItsGrace() {
        let offers = UndoOffers()
        let token = offers.offer({ "" }, now: start)
        #expect(offers.take(token, now: start.addingTimeInterval(13.5)) == nil)
        let second = offers.offer({ "" }, now: start)
        #expect(offers.take(second, now: start.addingTimeInterval(12.5)) != nil)
    }

    @Test func onlyTheNewestEightAreKept() {
        let offers = UndoOffers()
        let tokens = (0..<9).map { i in offers.offer({ "\(i)" }, now: start) }
        #expect(offers.take(tokens[0], now: start) == nil, "the oldest is dropped")
        for token in tokens.dropFirst() { #expect(offers.take(token, now: start) != nil) }
    }
}
