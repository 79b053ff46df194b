import SwiftUI

struct DieView: View {
    let die: Die

    var body: some View {
        Text("\(die.value)")
            .font(.largeTitle)
            // Started on appear, never stopped on disappear.
            .onAppear {
                die.startAnimation()
            }
    }
}

struct TableView: View {
    @State private var table = DiceTable(dice: [])

    var body: some View {
        HStack {
            ForEach(table.dice) { DieView(die: $0) }
        }
        // The task outlives the view and is never cancelled.
        .onAppear {
            Task {
                await table.waitForRolls()
            }
        }
    }
}
