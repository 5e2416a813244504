import Hummingbird
import SharedStore
import WidgetDesign

/// "Needs a store", written once for every route that reads or writes the store: the store (its root, its design
/// library, the Editor's workshop over both), or the 404 a server started without one answers (`weaver serve`
/// always has a store; tests start servers without one).
extension HomeScreenServer {
    func requireStore(_ refusal: HTTPError = .noStore) throws -> StoreRoot {
        guard let storeRoot else { throw refusal }
        return storeRoot
    }

    func requireLibrary(_ refusal: HTTPError = .noLibrary) throws -> DesignLibrary {
        guard let library else { throw refusal }
        return library
    }

    func requireWorkshop(_ refusal: HTTPError = .noLibrary) throws -> any DesignWorkshop {
        guard let workshop else { throw refusal }
        return workshop
    }
}
