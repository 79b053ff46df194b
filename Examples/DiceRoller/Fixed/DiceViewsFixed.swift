import SwiftUI

struct DieViewFixed: View {
    let die: DieFixed

    var body: some View {
        Text("\(die.value)")
            .font(.largeTitle)
            .onAppear {
                die.startAnimation()
            }
            .onDisappear {
                die.stopAnimation()
            }
    }
}

struct TableViewFixed: View {
    @State private var table = DiceTableFixed(dice: [])

    var body: some View {
        HStack {
            ForEach(table.dice) { DieViewFixed(die: $0) }
        }
        .task {
            await table.rollAll()
        }
    }
}
