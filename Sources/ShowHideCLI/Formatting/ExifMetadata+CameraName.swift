import Imaging

extension ExifMetadata {
    /// "Make Model", without the make repeated when the model already starts with it.
    var cameraName: String? {
        let make = self.make ?? ""
        let model = self.model ?? ""
        if model.isEmpty { return make.isEmpty ? nil : make }
        if make.isEmpty || model.lowercased().hasPrefix(make.lowercased()) { return model }
        return "\(make) \(model)"
    }
}
