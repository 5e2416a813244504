import Foundation
import Hummingbird
import NIOCore

/// The Noise section (`/noise`, and `/share` where share links point): the board of sounds over the mixer, the
/// mixer's API (`GET|POST /api/mixer`) the home screen's mixer uses too, and the board's (`BoardRoutes`).
struct NoiseRoutes {
    let server: HomeScreenServer

    @Sendable func page(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let board = SoundBoard(mixer: server.mixer)
        let mixer = server.mixer.state()
        let night = NightSection.html(Night(mixer: server.mixer).state(), presets: mixer.presets).description
        let html = Page.noise(
            mixer: mixer, token: server.token, sounds: board.sounds, board: board.state(), night: night)
        return Routes.body(html, type: "text/html; charset=utf-8")
    }

    @Sendable func state(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        Routes.body(HomeScreenServer.mixerJSON(server.mixer.state()), type: "application/json")
    }

    @Sendable func change(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        let change: MixerChange
        do { change = try MixerChange.decode(Data(buffer: body)) } catch {
            throw HTTPError(.badRequest, "\(error)")
        }
        do {
            let message = try server.mixer.apply(change)
            server.refresh()
            return Routes.body(HomeScreenServer.json(["message": message]), type: "application/json")
        } catch {
            throw HTTPError(.unprocessableContent, "\(error)")
        }
    }
}
