/// A number with its noun, singular or plural as the number asks: "1 photo", "2 photos", "0 files".
func counted(_ number: Int, _ noun: String, plural: String? = nil) -> String {
    "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
}
