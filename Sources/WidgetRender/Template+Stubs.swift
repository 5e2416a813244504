extension TemplateContext {
    func weather() { classic() }
    func nextUp() { classic() }
    func reminders() { classic() }
    func clock() { classic() }
    func accessory() {
        if spec.layout.template == .noiseMachine { noiseAccessory() }
    }
}
