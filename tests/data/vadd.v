// vadd(a[], b[], c[], n): c[i] = a[i] + b[i] for i < n; returns the sum of all c[i].
// Hand-written reference design obeying hls/interface.py (ap_ctrl_hs, one single-port
// memory per array, 32-bit words).  Cycles per call: 2*n + 2.
//
// Knobs (tests rewrite these lines to make variants):
//   BUG 0: correct; 1: off-by-one loop bound (one extra iteration); 2: never ap_done.
//   AW: address bits (depth = 2**AW words).
`define BUG 0
`define AW 4

module vadd (
    input  wire        ap_clk,
    input  wire        ap_rst_n,
    input  wire        ap_start,
    output wire        ap_done,
    output wire        ap_idle,
    output wire        ap_ready,
    output wire [31:0] ap_return,
    input  wire [31:0] n,
    output wire [`AW-1:0] a_address0,
    output wire        a_ce0,
    output wire [3:0]  a_we0,
    output wire [31:0] a_d0,
    input  wire [31:0] a_q0,
    output wire [`AW-1:0] b_address0,
    output wire        b_ce0,
    output wire [3:0]  b_we0,
    output wire [31:0] b_d0,
    input  wire [31:0] b_q0,
    output wire [`AW-1:0] c_address0,
    output wire        c_ce0,
    output wire [3:0]  c_we0,
    output wire [31:0] c_d0,
    input  wire [31:0] c_q0
);
    localparam S_IDLE = 3'd0, S_RD = 3'd1, S_WR = 3'd2, S_DONE = 3'd3, S_HANG = 3'd4;
    reg [2:0]  state;
    reg [31:0] i;
    reg [31:0] sum;
    wire [31:0] s = a_q0 + b_q0;
    wire more = (`BUG == 1) ? (i < n) : (i + 32'd1 < n);

    always @(posedge ap_clk) begin
        if (!ap_rst_n) begin
            state <= S_IDLE;
            i <= 32'd0;
            sum <= 32'd0;
        end else begin
            case (state)
                S_IDLE: if (ap_start) begin
                    i <= 32'd0;
                    sum <= 32'd0;
                    state <= (n == 32'd0) ? S_DONE : S_RD;
                end
                S_RD: state <= S_WR;
                S_WR: begin
                    sum <= sum + s;
                    i <= i + 32'd1;
                    state <= more ? S_RD : ((`BUG == 2) ? S_HANG : S_DONE);
                end
                S_DONE: state <= S_IDLE;
                default: state <= state;
            endcase
        end
    end

    assign ap_idle = (state == S_IDLE);
    assign ap_done = (state == S_DONE);
    assign ap_ready = (state == S_DONE);
    assign ap_return = sum;

    assign a_address0 = i[`AW-1:0];
    assign a_ce0 = (state == S_RD);
    assign a_we0 = 4'd0;
    assign a_d0 = 32'd0;
    assign b_address0 = i[`AW-1:0];
    assign b_ce0 = (state == S_RD);
    assign b_we0 = 4'd0;
    assign b_d0 = 32'd0;
    assign c_address0 = i[`AW-1:0];
    assign c_ce0 = (state == S_WR);
    assign c_we0 = (state == S_WR) ? 4'hF : 4'h0;
    assign c_d0 = s;
endmodule
